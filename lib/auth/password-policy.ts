// Shared by the API's schemas and the dashboard's forms, so it carries no server-only imports.
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
