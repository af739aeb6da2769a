// Contract handlers for connections.*: profiles as views (never keys), keys write-only, test, models, detection.
import type { Handlers } from '../../../shared/contract';
import type { ConnectionProfile } from '../../../shared/types/llm';
import { newProfileId, type LlmServices } from '../llm-services';

type ConnectionHandlerNames = Extract<keyof Handlers, `connections.${string}`>;

export function connectionHandlers({ connections, profiles }: Pick<LlmServices, 'connections' | 'profiles'>): Pick<Handlers, ConnectionHandlerNames> {
  /** Saves hit settings asynchronously: wait for the write so a failure reaches the caller. */
  const persisted = async <T>(value: T): Promise<T> => {
    await profiles.flush();
    return value;
  };
  const withId = (profile: Omit<ConnectionProfile, 'id' | 'defaultModel' | 'headers'> & Partial<ConnectionProfile>): ConnectionProfile => ({
    headers: {},
    defaultModel: '',
    ...profile,
    id: profile.id ?? newProfileId(profile.name, new Set(connections.list().map((p) => p.id))),
  });
  return {
    'connections.list': () => connections.list(),
    'connections.save': ({ profile, key }) => persisted(connections.save(withId(profile), key)),
    'connections.remove': ({ id }) => persisted(connections.remove(id)),
    'connections.setKey': ({ id, key }) => persisted(connections.setKey(id, key)),
    'connections.clearKey': ({ id }) => persisted(connections.clearKey(id)),
    'connections.confirm': ({ id }) => persisted(connections.confirm(id)),
    'connections.test': (input) =>
      'id' in input ? connections.test(input.id) : connections.test(withId(input.profile), input.key !== undefined ? { key: input.key } : {}),
    'connections.models': async ({ id }) => ({ models: await connections.listModels(id) }),
    'connections.detect': () => connections.detect(),
    'connections.secretsInfo': () => connections.describeSecrets(),
    'connections.allowObfuscatedKeys': () => connections.allowObfuscatedKeys(),
  };
}
