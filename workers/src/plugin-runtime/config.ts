/** The config form check moved to core (the registry checks settings before a plugin is enabled); kept here for the runtime's imports. */
export { resolveConfig, secretValues, type ConfigProblem } from '@tagsonic/core/plugins';
