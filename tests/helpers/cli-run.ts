// The CLI run in this process, its stdout and stderr captured: no extension workers are started (none is needed).
import { runCli } from '../../electron/headless/cli/run-cli';

export async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) }, { bundledExtensionsDir: null });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
