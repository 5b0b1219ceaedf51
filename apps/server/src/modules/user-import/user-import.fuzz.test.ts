import { defineRouteFuzzing } from '../../test/fuzz/fuzz-suite';
import { userImportGenerators } from '../../test/fuzz/generators-user-import';

// The user-import routes, the raw CSV upload among them: any 5xx, or an error in the wrong
// shape, fails with the shrunk request.
await defineRouteFuzzing({ pick: userImportGenerators });
