export const CORE_TESTING = "@heddle/core/testing";
