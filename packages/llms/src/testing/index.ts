export {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedResponse,
  type ScriptedStep,
  scriptedEvents,
} from "./scripted-model.js";
