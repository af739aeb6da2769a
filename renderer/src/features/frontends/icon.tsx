// An extension's icon (iconSvg) as a mask over the text colour: SVG as an image can run nothing and load
// nothing, and `currentColor` icons (most are) take the tab's colour as in Lumiverse. An SVG without its
// namespace (as authors often write them inline) gets it, or no browser draws it as an image.
const SVG_NS = 'http://www.w3.org/2000/svg';

export function iconDataUrl(svg: string): string {
  const named = /^\s*<svg\b[^>]*\bxmlns\s*=/i.test(svg) ? svg : svg.replace(/^\s*<svg\b/i, `<svg xmlns="${SVG_NS}"`);
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(named)}")`;
}

export function ExtensionIcon(props: { svg?: string | undefined }) {
  if (!props.svg || !/^\s*<svg\b/i.test(props.svg)) return null;
  const url = iconDataUrl(props.svg);
  return <span className="ext-icon" aria-hidden="true" style={{ maskImage: url, WebkitMaskImage: url }} />;
}
