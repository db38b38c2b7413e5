// The snap's build compiles the manifest's companion origins in (snap.config.ts); Node tests that
// import src/ get the same list from the same manifest.
const manifest = require('./snap.manifest.json');

process.env.COMPANION_ORIGINS = manifest.initialPermissions['endowment:keyring'].allowedOrigins.join(',');
