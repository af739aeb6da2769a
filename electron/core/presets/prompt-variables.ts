// A preset's prompt variables as a turn reads them, as Lumiverse resolves them (prompt-assembly.service.ts,
// resolvePromptVariables and coercePromptVariable): the enabled blocks' variable definitions, each value the person
// set (metadata.promptVariables, by block id) over the creator's default, coerced and clamped by its type; the last
// enabled block defining a name wins. {{var::name}}, {{getvar::name}} and `.name` all read them.
import type { PresetDto } from './preset-store';

interface Option {
  id: string;
  value: string;
}

interface Definition {
  name: string;
  type: string;
  defaultValue?: unknown;
  min?: unknown;
  max?: unknown;
  options?: Option[];
  separator?: unknown;
}

export interface PromptVariables {
  /** Each variable's value as the prompt reads it. */
  values: Map<string, string>;
  /** A multiselect variable's selected option ids ({{var::name::ison::…}}). */
  selections: Map<string, string[]>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function optionsOf(def: Definition): Option[] {
  return (Array.isArray(def.options) ? def.options : []).filter((o): o is Option => isRecord(o) && typeof o.id === 'string').map((o) => ({ id: o.id, value: typeof o.value === 'string' ? o.value : String(o.value ?? '') }));
}

function clamp(value: number, def: Definition): number {
  let v = value;
  if (typeof def.min === 'number' && v < def.min) v = def.min;
  if (typeof def.max === 'number' && v > def.max) v = def.max;
  return v;
}

/** Lumiverse's coercePromptVariable: the value as rendered, and the option ids selected. */
function coerce(def: Definition, raw: unknown): { rendered: string; selected: string[] } {
  const given = raw !== undefined && raw !== null;
  switch (def.type) {
    case 'number':
    case 'slider': {
      const fallback = typeof def.defaultValue === 'number' ? def.defaultValue : 0;
      const n = given ? Number(raw) : fallback;
      return { rendered: String(clamp(Number.isFinite(n) ? n : fallback, def)), selected: [] };
    }
    case 'select': {
      const options = optionsOf(def);
      const ids = new Set(options.map((o) => o.id));
      const fallback = ids.has(def.defaultValue as string) ? (def.defaultValue as string) : (options[0]?.id ?? '');
      const id = given && ids.has(String(raw)) ? String(raw) : fallback;
      return { rendered: options.find((o) => o.id === id)?.value ?? '', selected: id ? [id] : [] };
    }
    case 'switch': {
      if (!given) return { rendered: def.defaultValue === 1 ? '1' : '0', selected: [] };
      const on = typeof raw === 'boolean' ? raw : typeof raw === 'number' ? raw === 1 : ['1', 'true', 'on', 'yes'].includes(String(raw).trim().toLowerCase());
      return { rendered: on ? '1' : '0', selected: [] };
    }
    case 'multiselect': {
      const options = optionsOf(def);
      const wanted = Array.isArray(raw) ? raw.map(String) : !given ? (Array.isArray(def.defaultValue) ? def.defaultValue.map(String) : []) : typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : [];
      const chosen = options.filter((o) => wanted.includes(o.id));
      return { rendered: chosen.map((o) => o.value).join(typeof def.separator === 'string' ? def.separator : '\n\n'), selected: chosen.map((o) => o.id) };
    }
    default:
      return { rendered: given ? String(raw) : String(def.defaultValue ?? ''), selected: [] };
  }
}

export function promptVariables(preset: Pick<PresetDto, 'prompt_order' | 'metadata'>): PromptVariables {
  const stored = isRecord(preset.metadata.promptVariables) ? preset.metadata.promptVariables : {};
  const values = new Map<string, string>();
  const selections = new Map<string, string[]>();
  for (const block of preset.prompt_order) {
    if (block.enabled === false || !Array.isArray(block.variables)) continue;
    const own = stored[block.id];
    const bucket: Record<string, unknown> = isRecord(own) ? own : {};
    for (const def of block.variables) {
      if (!isRecord(def) || typeof def.name !== 'string' || !def.name) continue;
      const { rendered, selected } = coerce(def as unknown as Definition, Object.prototype.hasOwnProperty.call(bucket, def.name) ? bucket[def.name] : undefined);
      values.set(def.name, rendered);
      if (def.type === 'multiselect') selections.set(def.name, selected);
    }
  }
  return { values, selections };
}
