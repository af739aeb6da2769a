// `npm run cli -- <command> [--data-dir DIR] [--json]`: the core without a server.
import { takeKeyEnvironment } from '../core/connections/key-environment';
import { runCli } from './cli/run-cli';

// Keys in the environment are read now and leave it, before anything else runs.
const env = takeKeyEnvironment();
const code = await runCli(
  process.argv.slice(2),
  {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  },
  { env },
);
process.exitCode = code;
