#!/usr/bin/env bash
# Builds and installs Citus (the PostgreSQL extension that distributes tables across nodes) from the
# source kept in ../shared/vendor/citus (or CITUS_VENDOR), for the suites that start a throwaway
# Citus cluster. Does nothing when citus.so is already installed, so running it again is free. The
# build happens in a temporary folder that is removed afterwards; the one-hunk patch is applied only
# where PostgreSQL's headers export have_createdb_privilege (15.20 and later), as the build fails
# there without it. Run as root, or with sudo for apt-get and `make install`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
vendor="${CITUS_VENDOR:-$root/../shared/vendor/citus}"
pg_version=15
lib="/usr/lib/postgresql/$pg_version/lib/citus.so"
if [ -e "$lib" ]; then
  echo "Citus is installed ($lib): nothing to do"
  exit 0
fi
tarball="$vendor/citus-13.2.2.tar.gz"
patch_file="$vendor/pg15.20-have-createdb-privilege.patch"
if [ ! -f "$tarball" ]; then
  echo "Citus source not found at $tarball: set CITUS_VENDOR to the folder holding citus-13.2.2.tar.gz" >&2
  exit 1
fi
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
# the server the nodes run, and what the build needs
$sudo apt-get install -y -qq "postgresql-$pg_version" "postgresql-server-dev-$pg_version" liblz4-dev libzstd-dev libcurl4-openssl-dev \
  libkrb5-dev libssl-dev make gcc patch
build="$(mktemp -d "${TMPDIR:-/tmp}/citus-build.XXXXXX")"
trap 'rm -rf "$build"' EXIT
tar -xzf "$tarball" -C "$build"
cd "$build/citus-13.2.2"
if grep -q have_createdb_privilege "/usr/include/postgresql/$pg_version/server/commands/dbcommands.h"; then
  echo "PostgreSQL's headers export have_createdb_privilege: applying $(basename "$patch_file")"
  patch -p1 < "$patch_file"
fi
./configure PG_CONFIG="/usr/lib/postgresql/$pg_version/bin/pg_config" > "$build/configure.log"
make -j2 > "$build/make.log"
$sudo make install > "$build/install.log"
echo "Citus installed: $lib"
