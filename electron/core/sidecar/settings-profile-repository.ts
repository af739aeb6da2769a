// Connection profiles kept in the settings document's `connections` section (never keys), behind the ProfileRepository the ConnectionService expects.
import { HostFailure } from '../../../shared/errors';
import type { ConnectionProfile } from '../../../shared/types/llm';
import { withoutProfile, withProfile, type ProfileRepository } from '../connections/connection-service';
import type { Logger } from '../ports';
import type { SettingsStore } from '../settings/settings-store';
import type { Settings } from '../../../shared/settings';
import { defaultChatSettings } from '../../../shared/types/chat';

/**
 * The chat's main connection, when it names none that exists and exactly one connection is there (and in use: not one
 * a restore held), is that one: a newcomer's first connection answers in the chat without being chosen again.
 */
export function withOnlyConnectionChosen(settings: Settings): Settings {
  const connections = settings.connections ?? [];
  const chat = settings.chat ?? defaultChatSettings();
  const only = connections.length === 1 && connections[0]!.held === undefined ? connections[0]!.id : null;
  if (!only || connections.some((p) => p.id === chat.mainConnectionId)) return settings;
  return { ...settings, chat: { ...chat, mainConnectionId: only } };
}

const copy = (profiles: ConnectionProfile[]): ConnectionProfile[] => profiles.map((p) => ({ ...p, headers: { ...p.headers }, ...(p.keyRef ? { keyRef: { ...p.keyRef } } : {}) }));

/**
 * ConnectionService works synchronously; settings writes are queued. The repository keeps the
 * latest list in memory, queues each change, and ignores settings echoes while its own writes are
 * in flight (an older echo must not overwrite a newer save). Each queued change is applied to the
 * `connections` list as the settings queue finds it, so a profile another process saved meanwhile
 * stays. `flush()` reports a failed write.
 */
export class SettingsProfileRepository implements ProfileRepository {
  private profiles: ConnectionProfile[];
  private pending = 0;
  private lastWrite: Promise<unknown> = Promise.resolve();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly settings: SettingsStore,
    private readonly log?: Logger,
  ) {
    this.profiles = copy((settings.get().connections ?? []) as ConnectionProfile[]);
    this.unsubscribe = settings.onChange((next) => {
      if (this.pending === 0) this.profiles = copy((next.connections ?? []) as ConnectionProfile[]);
    });
  }

  load(): ConnectionProfile[] {
    return copy(this.profiles);
  }

  put(profile: ConnectionProfile): void {
    this.change((profiles) => withProfile(profiles, profile));
  }

  remove(id: string): void {
    this.change((profiles) => withoutProfile(profiles, id));
  }

  private change(apply: (profiles: ConnectionProfile[]) => ConnectionProfile[]): void {
    this.profiles = copy(apply(this.profiles));
    this.pending++;
    const write = this.settings.update((current) => withOnlyConnectionChosen({ ...current, connections: copy(apply((current.connections ?? []) as ConnectionProfile[])) }));
    this.lastWrite = write.then(
      (saved) => {
        // The last write in flight shows what other processes added meanwhile.
        if (--this.pending === 0) this.profiles = copy((saved.connections ?? []) as ConnectionProfile[]);
      },
      (err: unknown) => {
        this.pending--;
        // Back to what is on disk: the UI must not believe an unsaved change was kept.
        this.profiles = copy((this.settings.get().connections ?? []) as ConnectionProfile[]);
        this.log?.warn('connections: saving the profiles failed', err instanceof HostFailure ? err.error : undefined);
        throw err;
      },
    );
    this.lastWrite.catch(() => {});
  }

  /** Waits for queued writes; throws the write's HostFailure when the last one failed. */
  async flush(): Promise<void> {
    await this.lastWrite;
  }

  dispose(): void {
    this.unsubscribe();
  }
}
