// Images in a message's text, as Lumiverse draws them (Markdown's `![alt](src)` and an `<img src>`): image generators
// write them into replies. Only what needs no network shows: a data: URL of a raster image, or Lumiverse's address of
// an image the Workbench keeps (`/api/v1/images/<id>` or `/api/v1/image-gen/results/<id>`: one an extension keeps or
// made, or a character's picture), which the host
// reads. An image on the network is never fetched (a reply could learn who reads it, and when): its text stays, shown
// as a link is. Either way the message's text is all there, as text.
import { useEffect, useState } from 'react';
import { useHost } from '../../app/context';
import type { HostConnection } from '../../api/connection';

const RASTER = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
/** Lumiverse's two addresses of a kept image: its images, and its image generation's results (autoimg writes either). */
const KEPT = /^\/api\/v1\/(?:images|image-gen\/results)\/([A-Za-z0-9_-]{1,200})$/;
/** Images read from the host, kept for the chat's redraws (a long chat scrolls them in and out), up to this many characters. */
const CACHED_CHARS = 48 * 1024 * 1024;
const cache = new Map<string, string>();
let cachedChars = 0;

/** A kept image's data URL if it is in the cache (no host call). */
export const cachedKeptImage = (imageId: string): string | undefined => cache.get(imageId);

/** A kept image's data URL, from the cache or the host; a miss or a failure is not kept (it may be there next time). */
export async function readKeptImage(host: HostConnection, imageId: string): Promise<string | null> {
  const known = cache.get(imageId);
  if (known !== undefined) {
    // Most recently used last: the oldest goes first.
    cache.delete(imageId);
    cache.set(imageId, known);
    return known;
  }
  const read = await host.invoke('extensions.image', { imageId });
  const url = read.ok ? read.value.dataUrl : null;
  if (url === null || url.length > CACHED_CHARS) return url;
  cache.set(imageId, url);
  cachedChars += url.length;
  for (const [id, old] of cache) {
    if (cachedChars <= CACHED_CHARS) break;
    cache.delete(id);
    cachedChars -= old.length;
  }
  return url;
}

/** Where an image's address leads: shown as it is, read from the host, or not fetched. */
export function imageSource(src: string): { kind: 'data'; url: string } | { kind: 'kept'; imageId: string } | { kind: 'network' } {
  if (RASTER.test(src)) return { kind: 'data', url: src };
  const id = KEPT.exec(src)?.[1];
  return id ? { kind: 'kept', imageId: id } : { kind: 'network' };
}

/** `text` is the image's whole syntax in the message: hidden under the picture, shown as a link when there is none. */
export function MessageImage(props: { text: string; src: string; alt: string }) {
  const source = imageSource(props.src);
  if (source.kind === 'kept') return <KeptImage {...props} imageId={source.imageId} />;
  return source.kind === 'data' ? <Picture {...props} url={source.url} /> : <NoPicture {...props} why="An image on the network: not fetched" />;
}

function KeptImage(props: { text: string; src: string; alt: string; imageId: string }) {
  const host = useHost();
  const { imageId } = props;
  const [read, setRead] = useState<{ id: string; url: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    void readKeptImage(host, imageId).then((url) => live && setRead({ id: imageId, url }));
    return () => void (live = false);
  }, [host, imageId]);
  const url = read?.id === imageId ? read.url : undefined;
  if (url) return <Picture {...props} url={url} />;
  return <NoPicture {...props} why={url === null ? 'No such image is kept here' : 'Loading the image…'} />;
}

function Picture(props: { text: string; alt: string; url: string }) {
  return (
    <span className="md-image">
      <span className="md-mark">{props.text}</span>
      <img className="msg__image" src={props.url} alt={props.alt} loading="lazy" decoding="async" />
    </span>
  );
}

function NoPicture(props: { text: string; src: string; why: string }) {
  return (
    <span className="md-link" title={`${props.why} (${props.src.slice(0, 200)})`}>
      {props.text}
    </span>
  );
}
