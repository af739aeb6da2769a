// A host event to every running frontend, each hearing what its extension's permissions allow (the rule
// backends follow too: shared/spindle/event-access.ts).
import { eventPayloadFor } from '../../../../shared/spindle/event-access';
import type { ExtensionPermission } from '../../../../shared/types/spindle';

interface EventListener {
  notify(topic: 'event', payload: { event: string; payload: unknown }): void;
}

export function tellFrames(brokers: ReadonlyMap<string, EventListener>, grantedOf: (id: string) => readonly ExtensionPermission[], event: string, payload: unknown): void {
  for (const [id, broker] of brokers) {
    const heard = eventPayloadFor(event, payload, grantedOf(id), id);
    if (heard !== null) broker.notify('event', { event, payload: heard });
  }
}
