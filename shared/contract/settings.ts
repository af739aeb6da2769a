// Settings methods: read the whole document, apply a validated deep-merge patch.
import { Type } from '@sinclair/typebox';
import { method } from './define';
import { SettingsSchema } from '../settings';

export const settingsMethods = {
  'settings.get': method('The current settings document.', Type.Object({}, { additionalProperties: false }), SettingsSchema),
  'settings.update': method(
    'Deep-merge a patch into the settings (arrays replace); the result must validate.',
    Type.Object({ patch: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }),
    SettingsSchema,
  ),
};
