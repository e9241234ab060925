// A Heddle plugin: an ESM module whose default export is {name, setup}. setup returns tools and hooks.
export default {
  name: "word-count",
  setup() {
    const calls = [];
    return {
      tools: [
        {
          name: "count_words",
          description: "Count the words in a text",
          inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          readOnly: true,
          execute: ({ text }) => String(text.trim().split(/\s+/).filter(Boolean).length),
        },
      ],
      hooks: { afterTool: (ctx) => void calls.push(ctx.toolCall.toolName) },
    };
  },
};
