// Command-line flags shared by browser mode and the CLI.
import { parseArgs } from 'node:util';
import { HostFailure } from '../../shared/errors';

export interface HeadlessArgs {
  port: number;
  dataDir?: string;
  open: boolean;
}

export function parseHeadlessArgs(argv: string[]): HeadlessArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'no-open': { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (err) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: (err as Error).message });
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `--port must be 0–65535, got "${values.port}"`, path: '--port' });
  }
  return { port, dataDir: values['data-dir'], open: !values['no-open'] };
}
