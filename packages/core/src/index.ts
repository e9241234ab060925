export const CORE_PACKAGE = "@heddle/core";
