/** A child process's standard output read line by line, for tests that talk to a script. */
import type { ChildProcess } from "node:child_process";

/** Answers the next line `child` writes to stdout each time it is called; rejects after `ms` without one. */
export function linesOf(child: ChildProcess, what = "the process"): (ms?: number) => Promise<string> {
  const waiting: ((line: string) => void)[] = [];
  const ready: string[] = [];
  let rest = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    rest += chunk.toString();
    for (let newline = rest.indexOf("\n"); newline !== -1; newline = rest.indexOf("\n")) {
      const line = rest.slice(0, newline);
      rest = rest.slice(newline + 1);
      const taker = waiting.shift();
      if (taker === undefined) ready.push(line);
      else taker(line);
    }
  });
  return (ms = 10_000) => {
    const line = ready.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line from ${what} in ${ms / 1000} s`)), ms);
      waiting.push((got) => {
        clearTimeout(timer);
        resolve(got);
      });
    });
  };
}
