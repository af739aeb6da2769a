// Dialogs a backend opens for the person (Lumiverse's spindle.modal, prompt and textEditor): the window draws them,
// text only, with the extension's name, and the call waits for the person's answer (spindle-host/backend-dialogs.ts).
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { Id, Opt, OrNull, positional } from './request-schema';

const Text = (max: number) => Type.String({ maxLength: max });
const Label = Opt(Text(80));
/** Lumiverse's SpindleModalItemDTO: text, dividers, label–value rows, headings and cards of those. */
const ModalItem = Type.Recursive((self) =>
  Type.Union([
    Type.Object({ type: Type.Literal('text'), content: Text(10_000), muted: Opt(Type.Boolean()) }),
    Type.Object({ type: Type.Literal('divider') }),
    Type.Object({ type: Type.Literal('key_value'), label: Text(200), value: Text(2000) }),
    Type.Object({ type: Type.Literal('heading'), content: Text(200) }),
    Type.Object({ type: Type.Literal('card'), items: Type.Array(self, { maxItems: 50 }) }),
  ]),
);
const RequestId = Opt(Type.String({ pattern: '^[\\x21-\\x7e]{1,128}$' }));
/** Too many dialogs of one extension open at once (Lumiverse stacks two). */
const BUSY = ['RATE_LIMITED'];

export const DIALOG_REQUESTS = {
  'modal.open': endpoint({ ...positional({
      options: Type.Object({ title: Text(200), items: Type.Array(ModalItem, { maxItems: 200 }), width: Opt(Type.Number()), maxHeight: Opt(Type.Number()), persistent: Opt(Type.Boolean()), modalRequestId: RequestId }),
    }), result: Type.Object({ openRequestId: Type.String(), dismissedBy: Type.Union([Type.Literal('user'), Type.Literal('extension'), Type.Literal('cleanup')]) }), errors: BUSY }),
  'modal.close': endpoint({ ...positional({ openRequestId: Id(128) }), result: Type.Null() }),
  'modal.confirm': endpoint({ ...positional({
      options: Type.Object({ title: Text(200), message: Text(10_000), variant: Opt(Type.Union(['info', 'warning', 'danger', 'success'].map((v) => Type.Literal(v)))), confirmLabel: Label, cancelLabel: Label }),
    }), result: Type.Object({ confirmed: Type.Boolean() }), errors: BUSY }),
  'prompt.input': endpoint({ ...positional({
      options: Type.Object({ title: Text(200), message: Opt(Text(10_000)), placeholder: Opt(Text(200)), defaultValue: Opt(Text(100_000)), submitLabel: Label, cancelLabel: Label, multiline: Opt(Type.Boolean()) }),
    }), result: Type.Object({ value: OrNull(Type.String()), cancelled: Type.Boolean() }), errors: BUSY }),
  'textEditor.open': endpoint({ ...positional({
      options: Opt(Type.Object({ title: Opt(Text(200)), value: Opt(Text(1_000_000)), placeholder: Opt(Text(200)), editorRequestId: RequestId })),
    }), result: Type.Object({ text: Type.String(), cancelled: Type.Boolean() }), errors: BUSY }),
  'textEditor.close': endpoint({ ...positional({ editorRequestId: Id(128) }), result: Type.Null() }),
};
