// A relation of the memory graph in Lumiverse's shape (MemoryRelationDTO), and how seeing it again reinforces it:
// its strength grows with its evidence as 1 − e^(−0.15·n), its sentiment is the running average of what was seen.
import { randomUUID } from 'node:crypto';

export const RELATION_TYPES = ['ally', 'enemy', 'lover', 'parent', 'child', 'sibling', 'mentor', 'rival', 'owns', 'member_of', 'located_in', 'fears', 'serves', 'custom'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** Lumiverse's MemoryRelationDTO. */
export interface MemoryRelation {
  id: string;
  chatId: string;
  sourceEntityId: string;
  targetEntityId: string;
  relationType: RelationType;
  relationLabel: string | null;
  strength: number;
  sentiment: number;
  evidenceChunkIds: string[];
  firstEstablishedAt: number | null;
  lastReinforcedAt: number | null;
  status: 'active' | 'broken' | 'dormant' | 'former';
  metadata: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  contradictionFlag: 'none' | 'temporal' | 'complex' | 'suspect';
  contradictionPeerId: string | null;
  sentimentRange: [number, number] | null;
  supersededBy: string | null;
  arcIds: string[];
  firstSeenArcId: string | null;
  lastSeenArcId: string | null;
  lastEvidenceTimestamp: number | null;
  decayRate: number;
  edgeSalience: number;
  labelAliases: string[];
  canonicalEdgeId: string | null;
  mergedInto: string | null;
  userEditedAt?: number | null;
}

/** Lumiverse's MemoryRelationUpsertDTO: the ends by name. */
export interface RelationInput {
  source: string;
  target: string;
  type: RelationType;
  label?: string;
  sentiment?: number;
  markUserEdited?: boolean;
}

const STRENGTH_K = 0.15;
/** Evidence ids kept per edge (the newest). */
const MAX_EVIDENCE = 50;
const strengthOf = (evidence: number) => 1 - Math.exp(-STRENGTH_K * Math.max(1, evidence));
const clampSentiment = (value: number | undefined) => (typeof value === 'number' && Number.isFinite(value) ? Math.max(-1, Math.min(1, value)) : 0);

export function relationUpserted(
  existing: MemoryRelation | null,
  at: { chatId: string; sourceId: string; targetId: string; input: RelationInput; chunkId: string | null; now: number },
): MemoryRelation {
  const { input, now } = at;
  const sentiment = clampSentiment(input.sentiment);
  const label = input.label?.trim() ? input.label.trim() : null;
  const edited = input.markUserEdited ? { userEditedAt: now } : {};
  if (existing) {
    // A curated edge keeps its label and sentiment; its evidence still counts.
    const curated = existing.userEditedAt != null;
    const evidence = [...existing.evidenceChunkIds, ...(at.chunkId ? [at.chunkId] : [])].slice(-MAX_EVIDENCE);
    const seen = (typeof existing.metadata.evidenceCount === 'number' ? existing.metadata.evidenceCount : 1) + 1;
    const averaged = existing.sentiment + (sentiment - existing.sentiment) / seen;
    const range: [number, number] = existing.sentimentRange ? [Math.min(existing.sentimentRange[0], sentiment), Math.max(existing.sentimentRange[1], sentiment)] : [Math.min(existing.sentiment, sentiment), Math.max(existing.sentiment, sentiment)];
    const aliases = label && existing.relationLabel && label !== existing.relationLabel && !existing.labelAliases.includes(label) ? [...existing.labelAliases, label] : existing.labelAliases;
    return {
      ...existing,
      ...(curated ? {} : { relationLabel: label ?? existing.relationLabel, sentiment: averaged, labelAliases: aliases }),
      strength: Math.max(existing.strength, strengthOf(seen)),
      metadata: { ...existing.metadata, evidenceCount: seen },
      evidenceChunkIds: evidence,
      sentimentRange: range,
      lastReinforcedAt: now,
      lastEvidenceTimestamp: now,
      status: 'active',
      updatedAt: now,
      ...edited,
    };
  }
  return {
    id: randomUUID(),
    chatId: at.chatId,
    sourceEntityId: at.sourceId,
    targetEntityId: at.targetId,
    relationType: input.type,
    relationLabel: label,
    strength: strengthOf(1),
    sentiment,
    evidenceChunkIds: at.chunkId ? [at.chunkId] : [],
    firstEstablishedAt: now,
    lastReinforcedAt: now,
    status: 'active',
    // How many times it was seen (its evidence ids are kept only when a chunk was named).
    metadata: { evidenceCount: 1 },
    createdAt: now,
    updatedAt: now,
    contradictionFlag: 'none',
    contradictionPeerId: null,
    sentimentRange: null,
    supersededBy: null,
    arcIds: [],
    firstSeenArcId: null,
    lastSeenArcId: null,
    lastEvidenceTimestamp: now,
    decayRate: 0,
    edgeSalience: 0,
    labelAliases: [],
    canonicalEdgeId: null,
    mergedInto: null,
    userEditedAt: input.markUserEdited ? now : null,
  };
}
