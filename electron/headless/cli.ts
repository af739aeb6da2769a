// `npm run cli -- <command> [--data-dir DIR] [--json]`: the core without a server.
import { runCli } from './cli/run-cli';

const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
process.exitCode = code;
