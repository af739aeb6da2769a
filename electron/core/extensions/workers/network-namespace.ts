// A network namespace of its own for each worker, where Linux lets an unprivileged user make one.
//
// util-linux's `unshare --user --net` starts the worker with no network interface at all: no TCP or UDP
// reaches anything, loopback included, and abstract unix sockets (X11, D-Bus, many desktop services)
// are out of reach. Path-named unix sockets are files, not network: the runtime's sealed handle classes
// cover those (electron/worker/lockdown.ts). Many distributions switch unprivileged user namespaces off
// (Ubuntu 24.04 through AppArmor, hardened kernels by sysctl); there the probe fails and workers start
// without this layer, which their cards say.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const UNSHARE = ['/usr/bin/unshare', '/bin/unshare'];
/** Newer util-linux maps the current user; older ones only map root (to the same real user outside). */
const MAPPINGS = [['--map-current-user'], ['--map-root-user']];

let probed: string[] | null | undefined;

/** The command prefix that starts a process in a fresh network namespace, or null where none can be made. */
export function networkNamespacePrefix(): string[] | null {
  if (probed !== undefined) return probed;
  probed = null;
  if (process.platform !== 'linux') return probed;
  const binary = UNSHARE.find((candidate) => fs.existsSync(candidate));
  if (!binary) return probed;
  for (const mapping of MAPPINGS) {
    const prefix = [binary, '--user', ...mapping, '--net', '--'];
    const check = spawnSync(prefix[0]!, [...prefix.slice(1), process.execPath, '-e', 'process.exit(Object.keys(require("os").networkInterfaces()).length === 0 ? 0 : 3)'], {
      env: {},
      stdio: 'ignore',
      timeout: 10_000,
    });
    if (check.status === 0) {
      probed = prefix;
      break;
    }
  }
  return probed;
}
