// The preset spindle.assemble builds its prompt from, as Lumiverse builds it (spindle/assembly.ts there): the
// extension's blocks, normalized like any preset's, with the prompt variable values it gave; kept nowhere.
import { normalizeBlocks } from './preset-blocks';
import type { PresetDto } from './preset-store';

export function assemblyPreset(owner: string, blocks: readonly Record<string, unknown>[], promptVariables: Record<string, unknown>, nowSeconds: number): PresetDto {
  return {
    id: `spindle-assembly:${owner}`,
    name: `${owner} transient assembly`,
    provider: 'loom',
    engine: 'classic',
    parameters: {},
    prompt_order: normalizeBlocks(blocks),
    prompts: {},
    metadata: { promptVariables },
    cache_revision: 0,
    created_at: nowSeconds,
    updated_at: nowSeconds,
  };
}
