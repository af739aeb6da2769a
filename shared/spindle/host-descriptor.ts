// Lumiverse's host descriptor (spindle.host and ctx.host, spindle-types src/host.ts), one for an extension's backend
// and its frontend, as Lumiverse gives both the same: the capabilities this host has, and its installation's id.
import { fnv1a } from '../frames/frame-origin';
import { LUMIVERSE_COMPAT_VERSION } from './compat';

/**
 * What this host does of Lumiverse's versioned features, each claimed only where it is real: frontend v2's members,
 * the preset editor with its extension data and the Loom block editor, spindle.presets' blocks, spindle.assemble and
 * textEditor.close. Not claimed: interceptor-context-v1, interceptor-final-response-v1 and
 * connection-dispatch-resolution-v1 (an interceptor's full context, its final response, dispatch resolution).
 */
export const HOST_CAPABILITIES: Readonly<Record<string, number>> = Object.freeze({
  'frontend-extensibility-v2': 1,
  'preset-extension-data-v1': 1,
  'preset-editor-v1': 1,
  'loom-block-editor-v1': 1,
  'loom-block-management-v1': 1,
  'generation-assembly-v1': 1,
  'text-editor-close-v1': 1,
});

const hex = (n: number) => n.toString(16).padStart(8, '0');

/**
 * The extension's installation id, as Lumiverse's (a canonical lowercase UUID): the same for its backend and its
 * frontend, and at every start, as an installed extension's is (derived from its id: it names one installation here).
 */
export function installationId(extensionId: string): string {
  const [a, b, c, d] = [0x811c9dc5, 0x01000193, 0x5bd1e995, 0x27d4eb2f].map((basis) => hex(fnv1a(`cw-installation:${extensionId}`, basis)));
  // Version 4's and the RFC variant's bits, so a strict UUID check takes it.
  return `${a}-${b!.slice(0, 4)}-4${b!.slice(5, 8)}-${((parseInt(c!.slice(0, 1), 16) & 0x3) | 0x8).toString(16)}${c!.slice(1, 4)}-${c!.slice(4, 8)}${d}`;
}

export function hostDescriptor(extensionId: string) {
  return { descriptorVersion: 1 as const, lumiverseVersion: LUMIVERSE_COMPAT_VERSION, capabilities: HOST_CAPABILITIES, extensionInstallationId: installationId(extensionId) };
}
