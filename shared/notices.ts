// Notices: things the host must tell the user about (a settings file set aside, a failed extension…).
import { Type, type Static } from '@sinclair/typebox';

/** What a notice is about: these, or the ErrorCode of the failure it reports. */
export const NOTICE_CODES = ['SETTINGS_RECOVERED', 'SECRETS_UNENCRYPTED', 'EXTENSION_SAFE_MODE', 'EXTENSION_FAILED', 'MCP_SECRET_IN_SETTINGS'] as const;
export type NoticeCode = (typeof NOTICE_CODES)[number];

export const NoticeSchema = Type.Object({
  id: Type.String(),
  level: Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('error')]),
  code: Type.String(),
  message: Type.String(),
  at: Type.Number(),
});
export type Notice = Static<typeof NoticeSchema>;
