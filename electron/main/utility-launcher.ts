// The desktop app's Launcher: each extension in its own Electron utilityProcess, with an explicit env.
//
// Node's permission flags are passed in execArgv; whether Electron's utility process honours them is
// reported by the worker itself at start (`ready.contained`) and shown on the extension's card. A
// utilityProcess has no process group to kill: with the permission model on it cannot start children.
import { app, utilityProcess } from 'electron';
import path from 'node:path';
import { permissionFlags } from '../core/extensions/workers/containment';
import type { LaunchOptions, Launcher, WorkerHandle } from '../core/extensions/workers/launcher';
import { UtilityWorker } from '../core/extensions/workers/utility-worker';
import type { EngineLauncher } from '../core/local-model/engine-launcher';
import { minimalWorkerEnv } from '../core/extensions/workers/launcher';

function residentBytes(pid: number): number | null {
  const metric = app.getAppMetrics().find((m) => m.pid === pid);
  return metric ? metric.memory.workingSetSize * 1024 : null;
}

export const utilityLauncher: Launcher = {
  containment: "Electron utility process with Node's permission model requested; the worker reports at start whether it holds",
  launch(options: LaunchOptions): WorkerHandle {
    const child = utilityProcess.fork(options.entry, [], {
      env: options.env,
      cwd: options.cwd,
      stdio: 'pipe',
      serviceName: `council-extension-${options.id}`,
      execArgv: permissionFlags([path.dirname(options.entry), ...options.readable], process.versions.node),
    });
    return new UtilityWorker(child, residentBytes);
  },
};

/** The local model engine in a utility process of its own: our code, not contained, but with an environment of its own. */
export const utilityEngineLauncher: EngineLauncher = (entry) =>
  new UtilityWorker(utilityProcess.fork(entry, [], { env: minimalWorkerEnv({ HOME: app.getPath('home'), TMPDIR: app.getPath('temp') }), stdio: 'pipe', serviceName: 'council-local-model-engine' }), residentBytes);
