// A connection profile in Lumiverse's ConnectionProfileDTO shape, as spindle.connections and the frames' ctx.state
// give it: never a key, only whether it has one.

/** What a profile shows of itself (the host's summary and the window's key-free view both have it). */
export interface ConnectionFields {
  id: string;
  name: string;
  provider: string;
  baseUrl: string;
  defaultModel: string;
  hasKey: boolean;
}

export function connectionDto(profile: ConnectionFields, mainId: string | null) {
  return {
    id: profile.id,
    name: profile.name,
    provider: profile.provider,
    api_url: profile.baseUrl,
    model: profile.defaultModel,
    preset_id: null,
    is_default: profile.id === mainId,
    has_api_key: profile.hasKey,
    metadata: {},
    reasoning_bindings: null,
  };
}
