package rgfetch

// DefaultMinVersion is the oldest system rg accepted: 13.0.0 is what Debian
// 12 and Ubuntu 22.04 ship, and it has every flag the engines pass.
const DefaultMinVersion = "13.0.0"
