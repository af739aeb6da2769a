// Settings methods: read the whole document, apply a validated deep-merge patch.
import { Type } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { SettingsSchema } from '../settings';

export const settingsMethods = {
  'settings.get': endpoint({ description: 'The current settings document.', params: Type.Object({}, { additionalProperties: false }), result: SettingsSchema }),
  'settings.update': endpoint({ description: 'Deep-merge a patch into the settings (arrays replace); the result must validate.', params: Type.Object({ patch: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }), result: SettingsSchema }),
};
