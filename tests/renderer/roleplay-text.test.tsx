// @vitest-environment happy-dom
// Role-play text: Markdown, *actions*, "speech" and a few HTML tags drawn as what they mean, every character of
// the text kept as text (nothing becomes markup); blocks whose boundaries never move as a reply streams.
import fc from 'fast-check';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { RoleplayText, textBlocks } from '../../renderer/src/features/workbench/roleplay-text';
import { AppProviders } from '../../renderer/src/app/context';
import { createAppStore } from '../../renderer/src/stores/app/app-store';
import type { HostConnection } from '../../renderer/src/api/connection';

const REPLY = [
  '*Seraphina smiles softly.* "Welcome, traveller," she says.',
  '',
  '## The glade',
  '- moss',
  '- 2 lanterns',
  '> an old saying',
  '',
  '```js',
  'const x = "*not an action*";',
  '',
  'x();',
  '```',
  'After the code. <b>Bold</b>, **strong**, _soft_, ~~gone~~, `tick`, [map](https://example.com/map).',
  '',
  '---',
  '<script>alert(1)</script><img src=x onerror="alert(2)">',
].join('\n');

const roots: Array<() => void> = [];
afterEach(() => roots.splice(0).forEach((unmount) => unmount()));

function draw(text: string, host?: HostConnection): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const ui = <RoleplayText text={text} />;
  act(() => root.render(host ? <AppProviders host={host} store={createAppStore()}>{ui}</AppProviders> : ui));
  roots.push(() => {
    act(() => root.unmount());
    container.remove();
  });
  return container;
}

describe('role-play text', () => {
  it('draws Markdown and role-play forms as elements while the text stays the text', () => {
    const el = draw(REPLY);
    expect(el.textContent).toBe(REPLY);
    expect(el.querySelector('em.md-action')!.textContent).toBe('*Seraphina smiles softly.*');
    expect([...el.querySelectorAll('em.md-action .md-mark')].map((m) => m.textContent)).toEqual(['*', '*']);
    expect(el.querySelector('.md-speech')!.textContent).toBe('"Welcome, traveller,"');
    expect(el.querySelector('[role="heading"]')).toMatchObject({ textContent: '## The glade\n' });
    expect(el.querySelector('[role="heading"]')!.getAttribute('aria-level')).toBe('4');
    expect([...el.querySelectorAll('.md-item')].map((l) => l.textContent)).toEqual(['- moss\n', '- 2 lanterns\n']);
    // One break in the quote; the blank line after it is drawn outside its border.
    expect(el.querySelector('.md-quote')!.textContent).toBe('> an old saying\n');
    // Inside a code block nothing is an action, and its blank line does not end it.
    expect(el.querySelector('pre.md-code')!.getAttribute('data-lang')).toBe('js');
    expect(el.querySelector('pre.md-code code')!.textContent).toBe('const x = "*not an action*";\n\nx();\n');
    expect(el.querySelector('pre.md-code .md-action')).toBeNull();
    expect(el.querySelector('strong')!.textContent).toBe('<b>Bold</b>');
    expect([...el.querySelectorAll('strong')].map((s) => s.textContent)).toEqual(['<b>Bold</b>', '**strong**']);
    expect(el.querySelector('em:not(.md-action)')!.textContent).toBe('_soft_');
    expect(el.querySelector('s')!.textContent).toBe('~~gone~~');
    expect(el.querySelector('code.md-code-inline')!.textContent).toBe('`tick`');
    expect(el.querySelector('.md-link')!.getAttribute('title')).toBe('https://example.com/map');
    expect(el.querySelector('[role="separator"]')).not.toBeNull();
    // Raw HTML beyond the allow-list is text: no script, no image, no handler.
    expect(el.querySelector('script, img, [onerror]')).toBeNull();
    expect(el.textContent).toContain('<script>alert(1)</script>');
  });

  it('nests speech in an action, and leaves an unclosed marker as it is (a reply still streaming)', () => {
    const el = draw('*She whispers "now" and goes.* Then *she sta');
    expect(el.querySelector('.md-action .md-speech')!.textContent).toBe('"now"');
    expect(el.querySelectorAll('.md-action')).toHaveLength(1);
    expect(el.textContent).toBe('*She whispers "now" and goes.* Then *she sta');
  });

  it('cuts blocks that never move as any text grows (fences, blank lines, markers), and they join back to it', () => {
    const text = fc.array(fc.constantFrom('a', ' ', '\n', '\n\n', '```', '~~~', '*', '#', '> ', '- '), { maxLength: 120 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.nat(), (t, n) => {
        const cut = t.slice(0, n % (t.length + 1));
        const [before, after] = [textBlocks(cut), textBlocks(t)];
        return before.join('') === cut && after.join('') === t && before.slice(0, -1).every((block, i) => after[i] === block);
      }),
    );
  });

  it('cuts this reply into its blocks at every length it streams through', () => {
    const prefixes = Array.from({ length: REPLY.length + 1 }, (_, n) => REPLY.slice(0, n));
    const whole = textBlocks(REPLY);
    expect(whole.join('')).toBe(REPLY);
    expect(whole.length).toBeGreaterThanOrEqual(5);
    for (const prefix of prefixes) {
      const blocks = textBlocks(prefix);
      expect(blocks.join('')).toBe(prefix);
      // Every block but the growing last one is already the whole text's own block.
      expect(blocks.slice(0, -1)).toEqual(whole.slice(0, blocks.length - 1));
    }
  });

  it('images image generators write into replies: a raster data URL and a kept image show; one on the network is never fetched; the text stays', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const gif = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
    const text = [
      `*She hands you a sketch.* ![a red apple](${png})`,
      `<img src="${gif}" alt="a dot" onerror="alert(1)">`,
      '![kept](/api/v1/images/3f1c2a9e-0000-4000-8000-000000000001)',
      '![missing](/api/v1/images/3f1c2a9e-0000-4000-8000-000000000002)',
      '![generated](/api/v1/image-gen/results/3f1c2a9e-0000-4000-8000-000000000011)',
      '![tracker](https://tracker.example/pixel.png) <img src="http://tracker.example/p.gif">',
      '![svg](data:image/svg+xml;base64,PHN2Zy8+)',
    ].join('\n');
    const asked: unknown[] = [];
    const host = {
      invoke: async (method: string, input: { imageId: string }) => {
        asked.push([method, input]);
        return { ok: true, value: { dataUrl: input.imageId.endsWith('1') ? png : null } };
      },
      onEvent: () => () => undefined,
    } as unknown as HostConnection;
    const el = draw(text, host);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(el.textContent).toBe(text);
    const images = [...el.querySelectorAll('img')].map((img) => [img.getAttribute('src'), img.getAttribute('alt'), img.getAttribute('onerror')]);
    expect(images).toEqual([[png, 'a red apple', null], [gif, 'a dot', null], [png, 'kept', null], [png, 'generated', null]]);
    // Only Lumiverse's addresses of kept images were asked of the host; nothing went to the network or was made markup.
    expect(asked).toEqual([
      ['extensions.image', { imageId: '3f1c2a9e-0000-4000-8000-000000000001' }],
      ['extensions.image', { imageId: '3f1c2a9e-0000-4000-8000-000000000002' }],
      ['extensions.image', { imageId: '3f1c2a9e-0000-4000-8000-000000000011' }],
    ]);
    const notShown = [...el.querySelectorAll('.md-link')].map((link) => link.getAttribute('title'));
    expect(notShown).toEqual([
      'No such image is kept here (/api/v1/images/3f1c2a9e-0000-4000-8000-000000000002)',
      'An image on the network: not fetched (https://tracker.example/pixel.png)',
      'An image on the network: not fetched (http://tracker.example/p.gif)',
      'An image on the network: not fetched (data:image/svg+xml;base64,PHN2Zy8+)',
    ]);
    expect(el.querySelector('script, [onerror]')).toBeNull();
  });
});
