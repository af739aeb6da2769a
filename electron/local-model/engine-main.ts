// The local model engine's process: node-llama-cpp behind the declared engine link (shared/local-model/engine-contract.ts),
// on the channel the host started it with (two pipes, or Electron's parentPort). It never runs in the host's process: a
// crash or an out-of-memory here ends this process alone, and the host fails the generations in flight.
import { engineTable } from '../../shared/local-model/engine-contract';
import type { ToClient } from '../../shared/rpc/envelope';
import { serve } from '../../shared/rpc/serve';
import type { Transport } from '../../shared/rpc/transport';
import { tableCall } from '../core/rpc/serve-table';
import { detectHostPort, type HostPort } from '../worker/host-port';
import { engineService } from './engine-service';

function portTransport(port: HostPort): Transport<unknown, ToClient<never>> {
  let closed = false;
  const closes: Array<() => void> = [];
  port.onClose(() => {
    closed = true;
    for (const listener of closes) listener();
  });
  return {
    send: (message) => port.send(message),
    onMessage: (listener) => port.onMessage(listener),
    onClose: (listener) => void closes.push(listener),
    close: () => process.exit(0),
    get closed() {
      return closed;
    },
  };
}

const log = (line: string) => process.stderr.write(`${line.trimEnd()}\n`);
const port = detectHostPort();
if (!port) {
  log('The local model engine is started by the Workbench host, not by hand.');
  process.exit(2);
}
const transport = portTransport(port);
serve(transport, {
  call: tableCall(engineTable, engineService({ log, residentBytes: () => process.memoryUsage.rss() }), (bug) => log(`Engine bug: ${bug}`)),
  invalid: 'Expected a call of the engine link.',
});
// The host went away: nothing is left to answer.
transport.onClose(() => process.exit(0));
