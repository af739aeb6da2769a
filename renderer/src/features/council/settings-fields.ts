// The council settings the Settings tab edits one by one: the numbers (with their ranges) and the on/off switches.

type NumberKey = 'timeoutMs' | 'sidecarContextWindow' | 'maxWordsPerTool';
type ToggleKey = 'includeCharacterInfo' | 'includeWorldInfo' | 'includeUserPersona' | 'excludeLatestUserMessage' | 'allowUserControl' | 'retainResultsForRegens' | 'planArguments';

export const NUMBER_FIELDS: ReadonlyArray<{ key: NumberKey; label: string; unit: string; min: number; max: number; help: string }> = [
  { key: 'timeoutMs', label: 'Timeout', unit: 'ms', min: 100, max: 600_000, help: 'The deadline for the whole cycle: tools still running then end as timed out.' },
  { key: 'sidecarContextWindow', label: 'Context window', unit: 'messages', min: 0, max: 500, help: 'How many recent chat messages the tools see.' },
  { key: 'maxWordsPerTool', label: 'Max words per tool', unit: 'words', min: 0, max: 10_000, help: 'Prompt tools are cut to this many words; 0 means no limit.' },
];

export const TOGGLES: ReadonlyArray<{ key: ToggleKey; label: string; help: string }> = [
  { key: 'includeCharacterInfo', label: 'Include character info', help: 'The character card goes into the tools’ context.' },
  { key: 'includeWorldInfo', label: 'Include world info', help: 'Matching world info entries go into the context.' },
  { key: 'includeUserPersona', label: 'Include user persona', help: 'The user’s persona goes into the context.' },
  { key: 'excludeLatestUserMessage', label: 'Exclude latest user message', help: 'Tools analyse the chat without the message being answered.' },
  { key: 'allowUserControl', label: 'Allow user control', help: 'Tools follow out-of-character requests the user makes about the council.' },
  { key: 'retainResultsForRegens', label: 'Retain results for regenerations', help: 'A regenerated reply reuses the last run’s results instead of running the tools again.' },
  {
    key: 'planArguments',
    label: 'Plan tool arguments with the sidecar',
    help: 'The sidecar fills in each tool’s arguments. Off, or without a sidecar, tools are called as Lumiverse calls them: the chat context and the deadline only.',
  },
];

export function parseBounded(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= min && n <= max ? n : null;
}
