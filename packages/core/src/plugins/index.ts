export {
  type LoadedPlugin,
  type LoadPluginsContext,
  type LoadPluginsResult,
  loadPlugins,
  PluginLoadError,
  type PluginLoadErrorCode,
  type PluginLoadFailure,
  type PluginLoadStage,
} from "./load-plugins.js";
