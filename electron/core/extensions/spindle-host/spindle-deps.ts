// What the rest of the host lends to extensions' spindle calls, adapted to the shapes Lumiverse uses.
import type { Settings } from '../../../../shared/settings';
import type { LumiaPack } from '../../../../shared/types/council';
import type { CouncilMemberContext } from '../../../../shared/types/spindle';
import { IMAGE_PROVIDERS, type ConnectionProfileView, type SidecarConfig } from '../../../../shared/types/llm';
import type { GeneratedImage, ImageRequest } from '../../connections/image-generation';
import type { SecretStore } from '../../connections/secret-store';
import { buildMemberContext } from '../../council/context';
import type { CouncilService } from '../../council/council-service';
import type { PackStore } from '../../packs/pack-store';
import type { ChatReads } from './chat-data';
import type { PresetStore } from '../../presets/preset-store';
import type { MemoryCortex } from '../../memory/memory-cortex';
import type { RegexStore } from '../../regex/regex-store';
import type { SpindleHostDeps } from './spindle-host';

export interface SpindleDepsSources {
  settings(): Settings;
  connections(): ConnectionProfileView[];
  sidecar(): SidecarConfig;
  secrets: SecretStore;
  /** Created after the extensions (the council needs the registry they fill). */
  council(): { service: CouncilService; packs: PackStore } | null;
  chats(): ChatReads;
  presets: PresetStore;
  memories: MemoryCortex;
  regexScripts: RegexStore;
  /** An image from a saved connection (its image model); the key stays with the connections. */
  generateImage(connectionId: string, request: ImageRequest, signal: AbortSignal): Promise<GeneratedImage>;
  /** Whether a Workbench window is in view. */
  windowVisible(): boolean;
}

export function spindleDeps(sources: SpindleDepsSources): SpindleHostDeps {
  const mainId = () => sources.settings().chat?.mainConnectionId || null;
  return {
    connections: () => ({
      // The main connection's model is the chat's, when the chat names one (a connection may keep no default).
      list: () => sources.connections().map((p) => ({ id: p.id, name: p.name, provider: p.provider, baseUrl: p.baseUrl, defaultModel: (p.id === mainId() && sources.settings().chat?.model) || p.defaultModel, hasKey: p.hasKey })),
      mainId,
    }),
    tokens: () => ({
      main: () => sources.settings().chat?.model || sources.connections().find((p) => p.id === mainId())?.defaultModel || '',
      sidecar: () => sources.sidecar().model,
      chatMessages: () => null,
    }),
    secrets: () => sources.secrets,
    imageGen: () => ({
      // A connection held after a restore makes nothing until the person confirms it.
      list: () =>
        sources
          .connections()
          .filter((p) => p.imageModel && p.held === undefined && IMAGE_PROVIDERS.includes(p.provider))
          .map((p) => ({ id: p.id, name: p.name, provider: p.provider, baseUrl: p.baseUrl, imageModel: p.imageModel!, hasKey: p.hasKey })),
      generate: (id, request, signal) => sources.generateImage(id, request, signal),
    }),
    chats: () => sources.chats(),
    windowVisible: () => sources.windowVisible(),
    activePresetId: () => sources.settings().chat?.presetId || null,
    presets: () => sources.presets,
    memories: () => sources.memories,
    regexScripts: () => sources.regexScripts,
    council: () => {
      const council = sources.council();
      if (!council) return null;
      const { service, packs } = council;
      const item = (packId: string, itemId: string) => packs.item(packId, itemId);
      return {
        settings: () => {
          const settings = service.settings();
          return {
            councilMode: settings.councilMode,
            members: settings.members.map((m) => {
              const found = item(m.packId, m.itemId);
              return { id: m.id, packId: m.packId, packName: found?.pack.name ?? '', itemId: m.itemId, itemName: found?.item.name ?? m.itemId, tools: [...m.tools], role: m.role, chance: m.chance };
            }),
            toolsSettings: { ...settings.toolsSettings, sidecar: sources.sidecar() },
          };
        },
        members: (): CouncilMemberContext[] =>
          service.settings().members.map((m) => {
            const found = item(m.packId, m.itemId);
            return buildMemberContext(m, found ? { packName: found.pack.name, item: found.item, avatarUrl: null } : null);
          }),
        // Lumiverse's pack rows: the bundled ones are the Workbench's, the rest the person's own.
        packs: () => packs.all().map(({ pack, source }) => ({ id: pack.id, name: pack.name, author: pack.author ?? '', cover_url: null, version: pack.version, is_custom: source === 'user', source_url: null, created_at: 0, updated_at: 0 })),
        lumiaItems: () => packs.all().flatMap(({ pack }: { pack: LumiaPack }) => pack.items.map((i, order) => ({
          id: i.id,
          pack_id: pack.id,
          name: i.name,
          avatar_url: null,
          author_name: pack.author ?? '',
          definition: i.definition,
          personality: i.personality,
          behavior: i.behavior,
          gender_identity: i.genderIdentity,
          version: pack.version,
          sort_order: order,
          created_at: 0,
          updated_at: 0,
        }))),
      };
    },
  };
}
