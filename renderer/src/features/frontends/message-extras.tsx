// What extensions' frontends add to a chat message: tags their interceptors asked for (handed to them, and
// taken out of the shown text unless they said to keep it), and widgets they render under the message —
// each a sandbox frame (opaque origin, no network), never markup in the app's page.
import { useEffect, useMemo, useRef, useState } from 'react';
import { MAX_SANDBOX_MESSAGES_PER_SECOND } from '../../../frame/sandbox-host';
import { useFrontends, useFrontendsStore } from './frontends-context';
import type { MessageWidget, TagInterceptor } from './frontends-store';
import { SandboxFrame, sandboxUrl } from './SandboxFrame';
import { SurfaceFrame } from './SurfaceFrame';
import { useShallow } from 'zustand/react/shallow';
import { MAX_TAGS_PER_MESSAGE, scanTags, tagAttributes, withoutSpans, type TagSpan } from './tag-scan';

interface TagMatch {
  interceptor: TagInterceptor;
  start: number;
  end: number;
  fullMatch: string;
  attrs: Record<string, string>;
  content: string;
}

/** Every interceptor's tags in the text, in linear time, at most MAX_TAGS_PER_MESSAGE in all (tag-scan.ts). */
export function interceptedTags(text: string, interceptors: readonly TagInterceptor[]): TagMatch[] {
  const found: TagMatch[] = [];
  for (const interceptor of interceptors) {
    // As Lumiverse matches: each attribute it asked for has that value (one it lacks counts as empty). Tags of the name
    // that do not match take none of the message's budget.
    const wanted = interceptor.attrs;
    const keep = wanted && ((span: TagSpan) => {
      const attrs = tagAttributes(span.attrs);
      return Object.entries(wanted).every(([key, value]) => (Object.hasOwn(attrs, key) ? attrs[key] : '') === value);
    });
    for (const span of scanTags(text, interceptor.tagName, MAX_TAGS_PER_MESSAGE - found.length, keep || undefined)) {
      found.push({ interceptor, start: span.start, end: span.end, fullMatch: text.slice(span.start, span.end), attrs: tagAttributes(span.attrs), content: span.content });
    }
  }
  return found;
}

/**
 * The message's text as shown (intercepted tags removed), handing each tag to its extension once while the reply
 * streams (isStreaming: true) and once more when it is complete (false): extensions that wait for the finished
 * tag, as most do, get it.
 */
export function useInterceptedText(messageId: string | null, text: string, chatId: string, streaming: boolean): string {
  const { brokers } = useFrontends();
  const interceptors = useFrontendsStore((s) => s.interceptors);
  const found = useMemo(() => (interceptors.length && messageId ? interceptedTags(text, interceptors) : []), [text, interceptors, messageId]);
  const seen = useRef(new Set<string>());
  useEffect(() => {
    for (const m of found) {
      const key = `${m.interceptor.extensionId}\u0000${m.interceptor.interceptorId}\u0000${m.fullMatch}\u0000${streaming}`;
      if (seen.current.has(key)) continue;
      seen.current.add(key);
      brokers.get(m.interceptor.extensionId)?.notify('tag', {
        interceptorId: m.interceptor.interceptorId,
        tagName: m.interceptor.tagName,
        attrs: m.attrs,
        content: m.content,
        fullMatch: m.fullMatch,
        messageId: messageId!,
        chatId,
        isUser: false,
        isStreaming: streaming,
      });
    }
  }, [found, brokers, messageId, chatId, streaming]);
  return withoutSpans(text, found.filter((m) => m.interceptor.removeFromMessage));
}

function Widget(props: { widget: MessageWidget }) {
  const { brokers } = useFrontends();
  const { extensionId, messageId, widgetId, html, minHeight, maxHeight } = props.widget;
  const [stopped, setStopped] = useState(false);
  return (
    <div className="msg__widget" data-extension-id={extensionId} data-widget-id={widgetId}>
      <SandboxFrame
        url={sandboxUrl(extensionId)}
        html={html}
        title={`Widget of ${extensionId}`}
        forms
        minHeight={minHeight}
        maxHeight={maxHeight}
        onMessage={(payload) => brokers.get(extensionId)?.notify('widget', { messageId, widgetId, payload })}
        onFlood={() => setStopped(true)}
      />
      {stopped && (
        <p className="msg__widget-stopped" data-testid="widget-stopped">
          This widget of {extensionId} was stopped: it sent more than {MAX_SANDBOX_MESSAGES_PER_SECOND} messages in a second.
        </p>
      )}
    </div>
  );
}

/** The widgets extensions rendered under this message, and the places their dom.findMessageElement gave them there. */
export function MessageWidgets(props: { messageId: string | null }) {
  const widgets = useFrontendsStore((s) => s.widgets);
  const places = useFrontendsStore(useShallow((s) => (props.messageId ? s.surfaces.filter((x) => x.kind === 'message' && x.options.messageId === props.messageId) : [])));
  const mine = props.messageId ? widgets.filter((w) => w.messageId === props.messageId) : [];
  if (mine.length === 0 && places.length === 0) return null;
  return (
    <div className="msg__widgets">
      {mine.map((w) => (
        <Widget key={`${w.extensionId}/${w.widgetId}`} widget={w} />
      ))}
      {places.map((place) => (
        // As tall as what the extension put there (nothing until its frame says).
        <SurfaceFrame key={place.key} extensionId={place.extensionId} surfaceId={place.surfaceId} title={`${place.extensionId} on this message`} className="msg__place" height={place.contentHeight ?? 0} />
      ))}
    </div>
  );
}
