// `--watch`: runs again whenever a file of the extension changes (its snapshots and dependencies aside), until
// Ctrl+C; the exit code is the last run's.
import fs from 'node:fs';
import path from 'node:path';
import { onInterrupt } from '../interrupt';

/** Changes that settle within this long are one rerun (an editor's save writes several times). */
const SETTLE_MS = 300;
const IGNORED = [`${path.sep}__snapshots__${path.sep}`, `${path.sep}node_modules${path.sep}`, `${path.sep}.git${path.sep}`];

/** A change the watch does not answer: the snapshots a run writes, dependencies, the repository's own files. */
export function isIgnored(file: string): boolean {
  const name = `${path.sep}${file}${path.sep}`;
  return IGNORED.some((part) => name.includes(part));
}

/** `alsoIgnored`: files a run writes itself inside the folder (its JUnit report). */
export function watchRuns(dir: string, run: () => Promise<number>, note: (line: string) => void, first: number, alsoIgnored: string[] = []): Promise<number> {
  let last = first;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let changed = '';
  const rerun = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    note(`\n— ${changed} changed: running the cases again —`);
    running = run()
      .then(
        (code) => void (last = code),
        (err: unknown) => {
          note(`The run failed: ${(err as Error).message}`);
          last = 2;
        },
      )
      .finally(() => {
        running = null;
        if (stopped) return;
        if (again) {
          again = false;
          rerun();
        } else note('Watching for changes (Ctrl+C to stop).');
      });
  };
  const skip = new Set(alsoIgnored.map((file) => path.resolve(file)));
  const watcher = fs.watch(dir, { recursive: true }, (_event, file) => {
    const name = String(file ?? '');
    if (isIgnored(name) || skip.has(path.resolve(dir, name))) return;
    changed = name || 'a file';
    clearTimeout(timer);
    timer = setTimeout(rerun, SETTLE_MS);
  });
  note('Watching for changes (Ctrl+C to stop).');
  return new Promise((resolve) => {
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      watcher.close();
      void (running ?? Promise.resolve()).then(() => resolve(last));
    };
    const unlisten = onInterrupt(stop);
    // The folder removed or unreadable: the watch ends with what it has (Ctrl+C is the shell's again).
    watcher.on('error', (err) => {
      note(`Stopped watching: ${err.message}`);
      unlisten();
      stop();
    });
  });
}
