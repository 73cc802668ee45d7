import Foundation

/// The media API that stores image files (review photos, item images).
public protocol MediaStorage: Sendable {
    /// Uploads `file` under `filename`.
    /// - Returns: the name the media API stored it under.
    /// - Throws: `ExternalServiceError` when the API cannot be reached or refuses the file.
    func upload(_ file: UploadedFile, filename: String, format: PhotoFormat) async throws -> String

    /// Deletes the file stored under `filename`; one already gone is not an error.
    /// - Throws: `ExternalServiceError` when the API cannot be reached or refuses.
    func delete(filename: String) async throws
}
