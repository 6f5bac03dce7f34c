/**
 * A write of a company's events advances its revision by one (Citus refuses a sequence, which is
 * volatile, in an update of a distributed table); the sequence gives each company row, as it is
 * made (by a seed or a reset), the start of a range of 2^32 values of its own, so a revision still
 * never repeats. On Citus (a database with the `citus` extension) the tables are spread over its
 * workers by company: every company table is distributed by company_id, all in the co-location
 * group of `companies`, so a company's rows of every table sit on one node and each foreign key
 * joins within one shard. The key digests and the settings, read to authenticate before the company
 * is known, become reference tables (a copy on every node): reading them is one task on one node. A
 * reference table cannot refer to a distributed one, so the keys' reference to their holders goes
 * there. Elsewhere (PGlite, PostgreSQL) nothing changes.
 */
export const STATEMENTS: readonly string[] = [
  `alter sequence $schema.events_revisions increment by 4294967296`,
  `do $$
    begin
      if not exists (select from pg_extension where extname = 'citus') then return; end if;
      set local citus.multi_shard_modify_mode to 'sequential';
      alter table $schema.api_keys drop constraint api_keys_company_id_personnel_id_fkey;
      perform create_reference_table('$schema.sandbox_settings');
      perform create_reference_table('$schema.api_keys');
      perform create_distributed_table('$schema.companies', 'company_id');
      perform create_distributed_table(table_name, 'company_id', colocate_with => '$schema.companies')
        from unnest(array[
          '$schema.personnel', '$schema.clients', '$schema.credential_types', '$schema.wage_rules',
          '$schema.venues', '$schema.events', '$schema.payroll_groups', '$schema.stored_files',
          '$schema.worker_documents', '$schema.worker_credentials'
        ]::regclass[]) as table_name;
    end
    $$`,
];
