// What a restore replaced, kept as it goes, so a write that fails half-way can put every written item back: the
// folder is then as it was before the restore.
import type { Settings } from '../../../shared/settings';
import type { ChatSession } from '../../../shared/types/chat';
import type { BackupDeps } from './backup';
import { PERSON } from '../regex/regex-store';

type Put = () => void | Promise<void>;

export class RestoreUndo {
  private readonly steps: Array<{ what: string; put: Put }> = [];
  /** `settingsBefore`: the settings document as the restore found it (put back last). */
  constructor(
    private readonly deps: Pick<BackupDeps, 'sessions' | 'packs' | 'settings' | 'runs' | 'presets' | 'regex'>,
    private readonly settingsBefore: Settings,
  ) {}

  /** Before a session is written: its document and picture as they are (or that it was not here). */
  async session(id: string): Promise<void> {
    const { sessions } = this.deps;
    // A long chat is read in the background first (the host's thread stays free).
    await sessions.preload(id);
    const before: ChatSession | null = sessions.has(id) ? sessions.get(id) : null;
    const picture = before?.avatar ? await sessions.avatar(id) : null;
    this.steps.push({
      what: `session ${id}`,
      put: async () => {
        if (!before) return void sessions.delete(id);
        await sessions.writeWhole(before);
        if (picture) await sessions.writeAvatar(id, picture);
      },
    });
  }

  /** Before a pack is written: the file as it is (or that it was not here). */
  pack(id: string): void {
    const { packs } = this.deps;
    const before = packs.get(id) ? packs.export(id).content : null;
    this.steps.push({ what: `pack ${id}`, put: () => void (before === null ? packs.remove(id) : packs.import(before, { overwrite: true })) });
  }

  /** Before a council run is written: the run as it is (or that it was not here). */
  councilRun(id: string): void {
    const { runs } = this.deps;
    const before = runs.tryGet(id);
    this.steps.push({ what: `council run ${id}`, put: () => (before ? runs.save(before) : runs.remove(id)) });
  }

  /** Before a preset is written: the preset as it is (or that it was not here). */
  preset(id: string): void {
    const { presets } = this.deps;
    const before = presets.get(id);
    this.steps.push({ what: `preset ${id}`, put: () => void (before ? presets.restore(before) : presets.delete(id)) });
  }

  /** Before one of the person's regex scripts is written: the script as it is (or that it was not here). */
  regexScript(id: string): void {
    const { regex } = this.deps;
    const before = regex.get(id);
    this.steps.push({ what: `regex script ${id}`, put: () => void (before ? regex.restore(before) : regex.delete(id, PERSON)) });
  }

  /** Puts back everything written, newest first, and the settings; returns what could not be put back. */
  async run(): Promise<string[]> {
    const left: string[] = [];
    for (const { what, put } of this.steps.reverse()) {
      try {
        await put();
      } catch {
        left.push(what);
      }
    }
    try {
      const before = this.settingsBefore;
      await this.deps.settings.update(() => before);
    } catch {
      left.push('the settings');
    }
    return left;
  }
}
