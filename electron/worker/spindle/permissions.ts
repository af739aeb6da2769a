// spindle.permissions: what is granted now (kept in sync by the host), and the PERMISSION_CHANGED / PERMISSION_DENIED notices.
import type { EventHandlers } from './events';

export interface PermissionChangedDetail {
  extensionId: string;
  permission: string;
  granted: boolean;
  allGranted: string[];
}

export interface PermissionDeniedDetail {
  permission: string;
  operation: string;
}

export interface SpindlePermissions {
  /** Synchronous: the local copy the host keeps current. */
  has(permission: string): boolean;
  getGranted(): Promise<string[]>;
  onDenied(handler: (detail: PermissionDeniedDetail) => void): () => void;
  onChanged(handler: (detail: PermissionChangedDetail) => void): () => void;
}

export class PermissionState {
  private granted: Set<string>;

  constructor(
    private readonly extensionId: string,
    initial: readonly string[],
    private readonly events: EventHandlers,
  ) {
    this.granted = new Set(initial);
  }

  has(permission: string): boolean {
    return this.granted.has(permission);
  }

  list(): string[] {
    return [...this.granted];
  }

  api(): SpindlePermissions {
    return {
      has: (permission) => this.granted.has(permission),
      getGranted: async () => this.list(),
      onDenied: (handler) => this.events.on('PERMISSION_DENIED', (payload) => handler(payload as PermissionDeniedDetail)),
      onChanged: (handler) => this.events.on('PERMISSION_CHANGED', (payload) => handler(payload as PermissionChangedDetail)),
    };
  }

  /** The host's full list: one PERMISSION_CHANGED per permission that came or went. */
  async update(next: readonly string[]): Promise<void> {
    const before = this.granted;
    this.granted = new Set(next);
    const allGranted = this.list();
    const changes = [...[...this.granted].filter((p) => !before.has(p)).map((p) => [p, true] as const), ...[...before].filter((p) => !this.granted.has(p)).map((p) => [p, false] as const)];
    for (const [permission, granted] of changes) {
      await this.events.emit('PERMISSION_CHANGED', { extensionId: this.extensionId, permission, granted, allGranted } satisfies PermissionChangedDetail);
    }
  }
}
