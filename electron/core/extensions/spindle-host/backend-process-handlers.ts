// spindle.backendProcesses.*: answered by the asking worker's own table of managed processes
// (workers/backend-processes.ts). No permission is needed, as in Lumiverse.
import type { HandlersOf } from './handlers';
import { fail } from './handlers';
import type { RequestOrigin } from './spindle-host';

export function backendProcessHandlers(): HandlersOf<'backendProcesses', RequestOrigin> {
  const table = (origin: RequestOrigin) => origin.processes ?? fail('UNSUPPORTED_HERE', 'spindle.backendProcesses needs an extension worker to belong to.');
  return {
    'backendProcesses.spawn': (params, origin) => table(origin).spawn(params),
    'backendProcesses.list': ({ filter }, origin) => table(origin).list(filter),
    'backendProcesses.get': ({ processId }, origin) => table(origin).get(processId),
    'backendProcesses.send': ({ processId, payload }, origin) => {
      table(origin).send(processId, payload ?? null);
      return null;
    },
    'backendProcesses.stop': ({ processId, options }, origin) => {
      table(origin).stop(processId, options?.reason);
      return null;
    },
  };
}
