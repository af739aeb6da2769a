// Reads the app's own command-line options (--data-dir) from process.argv. No electron import.

export interface MainArgs {
  dataDir?: string;
}

/** Accepts `--data-dir=PATH` and `--data-dir PATH`; the last one wins. A flag without a value is an error. */
export function parseMainArgs(argv: readonly string[]): MainArgs {
  const args: MainArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--data-dir=')) {
      args.dataDir = requireValue(arg.slice('--data-dir='.length));
    } else if (arg === '--data-dir') {
      args.dataDir = requireValue(argv[++i]);
    }
  }
  return args;
}

function requireValue(value: string | undefined): string {
  if (value === undefined || value === '' || value.startsWith('--')) {
    throw new Error('--data-dir needs a folder, e.g. --data-dir=/path/to/folder');
  }
  return value;
}
