// An extension's icon (iconSvg): shown as an image, where SVG can run nothing and load nothing.
export function ExtensionIcon(props: { svg?: string | undefined }) {
  if (!props.svg) return null;
  return <img className="ext-icon" alt="" width={16} height={16} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(props.svg)}`} />;
}
