// What one extension may ask of the person's image connection: two images at a time and ten a minute (an extension
// that makes an image for every message it hears, and hears its own edit, would otherwise bill without end).
import { afterEach, describe, expect, it } from 'vitest';
import { imageGenHandlers, MAX_IMAGES_A_MINUTE } from '../../../electron/core/extensions/spindle-host/image-gen';
import { ExtensionImages } from '../../../electron/core/extensions/spindle-host/extension-images';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { PIXEL } from '../../helpers/png';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

function setup() {
  let now = 1_000_000;
  const asked: string[] = [];
  const connections = {
    list: () => [{ id: 'img', name: 'Images', provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', imageModel: 'gpt-image-1', hasKey: true }],
    generate: async (_id: string, request: { prompt: string }) => (asked.push(request.prompt), { bytes: PIXEL, model: 'gpt-image-1' }),
  };
  const clock = { now: () => now };
  const handlers = imageGenHandlers(() => connections, new ExtensionImages(tempDir(), clock), clock.now);
  const make = (extensionId: string, prompt: string) => callSpindle(handlers, anyCaller(extensionId), 'imageGen.generate', { args: [{ prompt }] }).then(() => 'made', (err: { error?: { code: string } }) => err.error?.code ?? String(err));
  return { make, asked, later: (ms: number) => (now += ms) };
}

describe('image generation for extensions', () => {
  it('makes ten a minute for one extension, refuses the eleventh (RATE_LIMITED, nothing asked), and more once the minute has passed', async () => {
    const { make, asked, later } = setup();
    for (let i = 0; i < MAX_IMAGES_A_MINUTE; i++) expect(await make('auto_gen', `scene ${i}`)).toBe('made');
    expect(await make('auto_gen', 'one too many')).toBe('RATE_LIMITED');
    expect(asked).toHaveLength(MAX_IMAGES_A_MINUTE);
    // Another extension has its own minute.
    expect(await make('portraits', 'a portrait')).toBe('made');
    later(60_001);
    expect(await make('auto_gen', 'next minute')).toBe('made');
    expect(asked.at(-1)).toBe('next minute');
  });

  it('a refusal for the minute leaves no image counted as under way', async () => {
    const { make, later } = setup();
    for (let i = 0; i <= MAX_IMAGES_A_MINUTE; i++) await make('auto_gen', `scene ${i}`);
    later(60_001);
    // Two at a time still: the refused one did not hold a place.
    expect(await Promise.all([make('auto_gen', 'a'), make('auto_gen', 'b')])).toEqual(['made', 'made']);
  });
});
