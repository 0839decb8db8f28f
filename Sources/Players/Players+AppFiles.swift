/// The files every app of the toolkit reads the same way (secret and
/// private files, XDG folders, their errors) are AppFiles': a module that
/// imports Players sees them too.
@_exported import AppFiles
