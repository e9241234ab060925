import type { FinishEvent, ResponseInfo } from "@heddle/shared";

/**
 * `finish` with the vendor's response id and model, when the request asked for them (`responseInfo`) and the stream
 * named either (for tracing).
 */
export function withResponse(finish: FinishEvent, response: ResponseInfo, wanted: boolean | undefined): FinishEvent {
  if (!wanted || (response.id === undefined && response.model === undefined)) return finish;
  return { ...finish, response: { ...response } };
}
