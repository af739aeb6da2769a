// @vitest-environment happy-dom
// Kept images named inside an HTML island (an image extension's `<img src="/api/v1/images/<id>">` in its markup):
// the host reads them and the island's frame is handed their data URLs; network images and unknown ids stay as written.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../renderer/src/app/context';
import { createAppStore } from '../../renderer/src/stores/app/app-store';
import type { HostConnection } from '../../renderer/src/api/connection';
import { keptImageIds, MAX_ISLAND_IMAGES, useKeptImages, withKeptImages } from '../../renderer/src/features/workbench/island-images';
import { PIXEL } from '../helpers/png';

const PNG = `data:image/png;base64,${PIXEL.toString('base64')}`;
const roots: Array<() => void> = [];
afterEach(() => roots.splice(0).forEach((done) => done()));

function Shown(props: { html: string }) {
  return <pre>{useKeptImages(props.html)}</pre>;
}

function draw(html: string, host: HostConnection): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(<AppProviders host={host} store={createAppStore()}><Shown html={html} /></AppProviders>));
  roots.push(() => {
    act(() => root.unmount());
    container.remove();
  });
  return container;
}

describe('kept images in HTML islands', () => {
  it('hands the frame data URLs for the kept images it names; unknown ones, text and network images stay as written', async () => {
    const html = [
      '<div class="scene"><img src="/api/v1/images/img-1" alt="a"><img src=\'/api/v1/images/img-1?w=512\'>',
      '<div style="background:url(/api/v1/images/img-2)"></div><img src="/api/v1/images/gone"><img src="/api/v1/image-gen/results/img-3">',
      'see /api/v1/images/img-1 in text <img src="https://tracker.example/api/v1/images/img-1"></div>',
    ].join('\n');
    const asked: string[] = [];
    const host = {
      invoke: async (method: string, input: { imageId: string }) => {
        asked.push(`${method} ${input.imageId}`);
        return { ok: true, value: { dataUrl: input.imageId === 'gone' ? null : PNG } };
      },
      onEvent: () => () => undefined,
    } as unknown as HostConnection;
    const el = draw(html, host);
    // Until they are read the island is as written.
    expect(el.textContent).toBe(html);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(asked.sort()).toEqual(['extensions.image gone', 'extensions.image img-1', 'extensions.image img-2', 'extensions.image img-3']);
    expect(el.textContent).toBe([
      `<div class="scene"><img src="${PNG}" alt="a"><img src='${PNG}'>`,
      `<div style="background:url(${PNG})"></div><img src="/api/v1/images/gone"><img src="${PNG}">`,
      'see /api/v1/images/img-1 in text <img src="https://tracker.example/api/v1/images/img-1"></div>',
    ].join('\n'));
  });

  it('images already read show at once in a changed island (a streaming reply); one that cannot be read leaves the others shown', async () => {
    let fail = false;
    const host = {
      invoke: async (_method: string, input: { imageId: string }) => {
        if (fail && input.imageId === 'broken') throw new Error('host gone');
        return { ok: true, value: { dataUrl: PNG } };
      },
      onEvent: () => () => undefined,
    } as unknown as HostConnection;
    const first = draw('<div><img src="/api/v1/images/cached-1"></div>', host);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(first.textContent).toBe(`<div><img src="${PNG}"></div>`);
    // The same image in a grown island: no frame of it is handed its address first.
    const grown = draw('<div><img src="/api/v1/images/cached-1"><p>more</p></div>', host);
    expect(grown.textContent).toBe(`<div><img src="${PNG}"><p>more</p></div>`);
    fail = true;
    const mixed = draw('<div><img src="/api/v1/images/broken"><img src="/api/v1/images/fresh-2"></div>', host);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(mixed.textContent).toBe(`<div><img src="/api/v1/images/broken"><img src="${PNG}"></div>`);
  });

  it('reads at most MAX_ISLAND_IMAGES an island, each once, and leaves HTML without one alone', () => {
    const many = Array.from({ length: MAX_ISLAND_IMAGES + 8 }, (_, i) => `<img src="/api/v1/images/i${i % (MAX_ISLAND_IMAGES + 4)}">`).join('');
    expect(keptImageIds(many)).toHaveLength(MAX_ISLAND_IMAGES);
    expect(keptImageIds('<div><img src="data:image/png;base64,AAAA"></div>')).toEqual([]);
    expect(withKeptImages('<img src="/api/v1/images/x">', new Map())).toBe('<img src="/api/v1/images/x">');
  });
});
