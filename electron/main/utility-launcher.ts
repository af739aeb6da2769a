// The desktop app's Launcher: each extension in its own Electron utilityProcess, with an explicit env.
//
// Electron 41's utilityProcess.fork takes env, execArgv, cwd, stdio (stdout/stderr only),
// serviceName and two macOS signing options: no OS sandbox, no process group, no memory limit.
// The permission-model flags are passed in execArgv, but Electron's utility-process bootstrap is
// reported not to apply them (process.permission stays undefined); the runtime then says so in the
// extension's log and closes child processes, threads and addons at the JavaScript level. The file
// system is not confined in this door. Memory is read from app.getAppMetrics.
import { app, utilityProcess } from 'electron';
import { permissionArgs } from '../core/extensions/containment';
import type { LaunchOptions, Launcher, WorkerHandle } from '../core/extensions/launcher';
import { runtimeScript } from '../core/extensions/runtime-script';
import { UtilityWorker } from './utility-worker';

function residentBytes(pid: number): number | null {
  const metric = app.getAppMetrics().find((m) => m.pid === pid);
  // workingSetSize is in kilobytes.
  return metric ? metric.memory.workingSetSize * 1024 : null;
}

export const utilityLauncher: Launcher = {
  launch(options: LaunchOptions): WorkerHandle {
    const script = runtimeScript(options.entry);
    const child = utilityProcess.fork(script.file, [], {
      env: options.env,
      cwd: options.cwd,
      execArgv: permissionArgs({ ...options.containment, read: [...options.containment.read, ...script.files] }),
      stdio: 'pipe',
      serviceName: `council-extension-${options.id}`,
    });
    return new UtilityWorker(child, residentBytes);
  },
};
