// Notices: things the host must tell the user about (a settings file set aside, a failed extension…).
import { Type, type Static } from '@sinclair/typebox';

export const NoticeSchema = Type.Object({
  id: Type.String(),
  level: Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('error')]),
  code: Type.String(),
  message: Type.String(),
  at: Type.Number(),
});
export type Notice = Static<typeof NoticeSchema>;
