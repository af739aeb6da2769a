// Lumiverse's address of a kept image inside an HTML island (an image extension's `<img src="/api/v1/images/<id>">`
// in its own markup): the island's frame has no network, so the host reads each image and the island is handed its
// data: URL in the address's place. An image on the network stays out, as it does in text.
import { useEffect, useMemo, useState } from 'react';
import { useHost } from '../../app/context';
import { cachedKeptImage, readKeptImage } from './message-image';

/** An address in an attribute or a CSS url(), with its query (a size or cache key Lumiverse ignores here). */
const KEPT_IN_HTML = /(\b(?:src|href|poster|background)\s*=\s*["']?|url\(\s*["']?)\/api\/v1\/(?:images|image-gen\/results)\/([A-Za-z0-9_-]{1,200})(?:\?[^"'\s)>]*)?/gi;
/** More images than this in one island and the rest are not read (each is a host call and a data URL in the frame). */
export const MAX_ISLAND_IMAGES = 32;

/** The kept images an island's HTML names, each once, the first MAX_ISLAND_IMAGES. */
export function keptImageIds(html: string): string[] {
  if (!html.includes('/api/v1/images/') && !html.includes('/api/v1/image-gen/results/')) return [];
  const ids = new Set<string>();
  for (const m of html.matchAll(KEPT_IN_HTML)) {
    if (ids.size >= MAX_ISLAND_IMAGES) break;
    ids.add(m[2]!);
  }
  return [...ids];
}

/** `html` with each read image's address replaced by its data URL; an address not read stays as it was. */
export function withKeptImages(html: string, urls: ReadonlyMap<string, string>): string {
  if (urls.size === 0) return html;
  return html.replace(KEPT_IN_HTML, (whole, lead: string, id: string) => {
    const url = urls.get(id);
    return url ? `${lead}${url}` : whole;
  });
}

/** The island's HTML as its frame gets it: the kept images already read in place at once (a streaming reply's islands
 * change often), then, once the others are read, with them too (one change). */
export function useKeptImages(html: string): string {
  const host = useHost();
  const ids = useMemo(() => keptImageIds(html), [html]);
  const now = useMemo(() => {
    const urls = new Map(ids.flatMap((id) => (cachedKeptImage(id) ? [[id, cachedKeptImage(id)!] as const] : [])));
    return { shown: withKeptImages(html, urls), missing: ids.filter((id) => !urls.has(id)), urls };
  }, [html, ids]);
  const [read, setRead] = useState<{ html: string; shown: string } | null>(null);
  useEffect(() => {
    if (now.missing.length === 0) return;
    let live = true;
    // One image that cannot be read leaves its address; the others still show.
    void Promise.allSettled(now.missing.map(async (id) => [id, await readKeptImage(host, id)] as const)).then((settled) => {
      const urls = new Map(now.urls);
      for (const r of settled) if (r.status === 'fulfilled' && r.value[1] !== null) urls.set(r.value[0], r.value[1]);
      if (live) setRead({ html, shown: withKeptImages(html, urls) });
    });
    return () => void (live = false);
  }, [host, html, now]);
  return read?.html === html ? read.shown : now.shown;
}
