// Browser mode: serve the renderer and the contract on 127.0.0.1 and print the URL (started by main.ts).
import { HostFailure } from '../../shared/errors';
import { listenForCli } from '../core/app-socket/server';
import { takeKeyEnvironment } from '../core/connections/key-environment';
import { consoleLogger } from '../core/ports';
import { parseHeadlessArgs } from './args';
import { ensureRendererBuilt, RENDERER_DIR } from './build-renderer';
import { onInterrupt } from './interrupt';
import { createNodeHost } from './node-host';
import { openInBrowser } from './open-browser';
import { startHeadlessServer } from './server';

async function serve(): Promise<void> {
  // Keys in the environment are read now and leave it, before anything else runs.
  const env = takeKeyEnvironment();
  const args = parseHeadlessArgs(process.argv.slice(2));
  // The extensions' workers start once the page is served (launching them blocks this thread a while each).
  const host = await createNodeHost({ dataDir: args.dataDir, mode: 'browser', env, deferToolSources: true });
  ensureRendererBuilt((line) => console.log(line));
  const server = await startHeadlessServer({ host, rendererDir: RENDERER_DIR, port: args.port, log: consoleLogger });
  const status = await host.api.call('host.status', {}, { origin: 'cli' });
  const dataDir = status.ok ? (status.value as { dataDir: string }).dataDir : '?';
  // `npm run cli` on this data folder now talks to this app (one writer; the page sees its changes at once).
  const cliSocket = status.ok ? await listenForCli(host, dataDir, consoleLogger) : null;
  console.log(`Council Workbench (browser mode) is ready: ${server.url}`);
  console.log(`Data folder: ${dataDir}. Press Ctrl+C to stop.`);
  if (args.open) openInBrowser(server.url);
  host.startToolSources();

  onInterrupt(() => {
    void (async () => {
      await cliSocket?.close();
      await server.close();
      await host.dispose();
      process.exit(0);
    })();
  });
}

/** Runs browser mode until Ctrl+C; a start that fails prints why and exits 1. */
export function runBrowserMode(): Promise<void> {
  return serve().catch((err) => {
    if (err instanceof HostFailure) {
      console.error(`Error ${err.error.code}: ${err.error.message}${err.error.hint ? `\n${err.error.hint}` : ''}`);
    } else {
      console.error(err);
    }
    process.exit(1);
  });
}
