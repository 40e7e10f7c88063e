/** The app id: keychain service name, and appId in electron-builder.yml (a test keeps them equal). */
export const APP_ID = 'com.quayside.desktop';
