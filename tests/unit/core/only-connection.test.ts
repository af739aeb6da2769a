// The only connection answers in the chat without being chosen again (issue 49's walk: it was not pre-selected).
import { describe, expect, it } from 'vitest';
import { withOnlyConnectionChosen } from '../../../electron/core/sidecar/settings-profile-repository';
import { defaultSettings, type Settings } from '../../../shared/settings';

const profile = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: id, provider: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:9/v1', defaultModel: '', headers: {}, ...extra });
const main = (s: Settings) => s.chat?.mainConnectionId;

describe('withOnlyConnectionChosen', () => {
  it('chooses the only connection when the chat names none that exists', () => {
    expect(main(withOnlyConnectionChosen({ ...defaultSettings(), connections: [profile('a')] }))).toBe('a');
    const stale = defaultSettings();
    stale.chat = { ...stale.chat!, mainConnectionId: 'gone' };
    expect(main(withOnlyConnectionChosen({ ...stale, connections: [profile('a')] }))).toBe('a');
  });

  it('leaves a chosen connection, a choice among several, and a connection a restore held', () => {
    const chosen = defaultSettings();
    chosen.chat = { ...chosen.chat!, mainConnectionId: 'b' };
    expect(main(withOnlyConnectionChosen({ ...chosen, connections: [profile('b')] }))).toBe('b');
    expect(main(withOnlyConnectionChosen({ ...defaultSettings(), connections: [profile('a'), profile('b')] }))).toBe('');
    expect(main(withOnlyConnectionChosen({ ...defaultSettings(), connections: [profile('a', { held: 'new: it sends to …' })] }))).toBe('');
  });
});
