// The gateway lands with the llms issue; the testing subpath already offers the scripted model.
export const LLMS_PACKAGE = "@heddle/llms";
