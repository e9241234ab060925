export {
  type LoadedPlugin,
  type LoadPluginsContext,
  type LoadPluginsResult,
  loadPlugins,
  type PluginLoadFailure,
  type PluginLoadStage,
} from "./load-plugins.js";
