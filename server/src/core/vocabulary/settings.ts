// The run settings every analysis reads: the engine's name for them. Their type and defaults are
// on the wire, so shared/settings.ts defines them (shared/ imports nothing from the engine);
// vocabulary/settingsSchema.ts says what is valid.
export { DEFAULT_SETTINGS, type GenericFieldMap, type RolloutLensSettings } from '../../../../shared/settings';
