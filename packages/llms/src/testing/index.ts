export {
  chunksJsonlResponse,
  familyForPath,
  frameSse,
  frameSseEvent,
  type MockFamily,
  type MockProviderServer,
  type MockProviderServerOptions,
  type MockResponder,
  type MockResponse,
  type RecordedRequest,
  startMockProviderServer,
} from "./mock-server.js";
export {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedResponse,
  type ScriptedStep,
  scriptedEvents,
} from "./scripted-model.js";
